class Video < SiteEntity
  REF = /\A[0-9a-z][0-9a-z-]{0,63}\z/.freeze
  has_many :comments, foreign_key: "video_numid", inverse_of: :video

  # The video a reference names: its short id (13 characters of base36), else its pretty id.
  def self.named(ref)
    return where(arel_table[:id].eq(ref)).first if ShortId.short_id?(ref)

    REF.match?(ref) ? find_by(prettyid: ref) : nil
  end

  # Its comments in the order they were written (the audit history has it).
  def comments_in_order(limit = 100)
    first_seq = Arel.sql(
      "(SELECT min(h.seq) FROM history h WHERE h.table_name = 'comments' AND h.row_key = comments.id)"
    )
    comments.order(first_seq, :id).limit(limit)
  end
end
