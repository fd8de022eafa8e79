class Comment < SiteEntity
  belongs_to :video, foreign_key: "video_numid", inverse_of: :comments

  # The API's names for the stored columns.
  FIELDS = { "name" => "author", "url" => "author_url", "email" => "author_email", "body" => "body" }.freeze

  def as_document
    {
      "id" => short_id, "video_id" => video.short_id,
      **FIELDS.to_h { |name, column| [name, self[column]] }
    }
  end
end
