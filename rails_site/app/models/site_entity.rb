# A video or comment: keyed by numid (a 64-bit number, stored signed where the database has no
# unsigned 64-bit integer); its short id is the column named id, which Rails would read as the
# primary key, so it is read and written here by its column.
class SiteEntity < ApplicationRecord
  self.abstract_class = true
  self.primary_key = "numid"

  def short_id
    @attributes.fetch_value("id")
  end

  def short_id=(value)
    @attributes.write_from_user("id", value)
  end
end
