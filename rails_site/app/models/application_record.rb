# The site's tables, made by layerbench's migrations (ids registry and audit triggers included):
# Rails reads and writes them, never changes their schema.
class ApplicationRecord < ActiveRecord::Base
  self.abstract_class = true
end
