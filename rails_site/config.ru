# The layerbench demo site in Rails, as Passenger and puma load it.
require_relative "config/environment"

run Rails.application
