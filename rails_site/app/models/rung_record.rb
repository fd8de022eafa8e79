# The ladder's rung data: the seed's row (1, 'Hello world!') in its own database.
class RungRecord < ActiveRecord::Base
  self.abstract_class = true
  connects_to database: { writing: :rungs, reading: :rungs }
end
