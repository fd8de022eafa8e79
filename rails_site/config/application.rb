# The layerbench demo site in Rails 6.1 (issue 24, seed 000's Rails story): the ladder's
# framework rungs on the database layerbench made and seeded (its tables, ids registry and
# audit triggers), configured only from the environment layerbench gives every application.
require_relative "boot"

require "rails"
require "active_record/railtie"
require "action_controller/railtie"
require "action_view/railtie"
require "actionpack/page_caching"
require "action_controller/action_caching"
require "rails-observers"
require_relative "../lib/layerbench_settings"
require_relative "../lib/body_limit"

module LayerbenchSite
  class Application < Rails::Application
    config.load_defaults 6.1
    config.root = File.expand_path("..", __dir__)
    config.eager_load = true
    config.cache_classes = true
    config.consider_all_requests_local = false
    config.secret_key_base = LayerbenchSettings.secret
    config.hosts.clear
    # The site's pages, once built: files in public/ (caches_page, which the front server
    # answers without Ruby) or, with a memcached cache URL, the cache store (caches_action).
    config.cache_store = LayerbenchSettings.cache_store
    config.action_controller.perform_caching = true
    config.action_controller.page_cache_directory = Rails.root.join("public").to_s
    # puma answers public/ itself (a cached page included); Apache does under Passenger.
    config.public_file_server.enabled = true
    config.logger = ActiveSupport::Logger.new($stderr, level: :warn)
    config.log_level = :warn
    config.active_record.observers = :comment_sweeper
    config.paths["config/database"] = File.expand_path("database.yml", __dir__)
    # The body capped before Rails reads it (lib/body_limit.rb).
    config.middleware.insert_before 0, BodyLimit
  end
end
