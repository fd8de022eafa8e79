# A comment written as layerbench's repository writes one (layerbench_sites/datalayer/): a fresh
# numid and its short id in one transaction that names its actor, so that the database's
# triggers register the id and record the history; run again with another id when the fresh
# one collided, or when the database gave the transaction up for another (at most ATTEMPTS).
class CommentWriter
  ATTEMPTS = 10
  # The actor as each database's audit triggers read it.
  SET_ACTOR = {
    "SQLite" => ["INSERT INTO audit_actor (slot, actor) VALUES (1, ?)", "DELETE FROM audit_actor"],
    "PostgreSQL" => ["SELECT set_config('layerbench.actor', ?, true)", nil],
    "Mysql2" => ["SET @layerbench_actor = ?", "SET @layerbench_actor = NULL"]
  }.freeze

  def initialize(video, fields, actor)
    @video = video
    @fields = fields
    @actor = actor
  end

  def write
    attempt = 0
    begin
      attempt += 1
      insert
    rescue ActiveRecord::RecordNotUnique, ActiveRecord::Deadlocked, ActiveRecord::SerializationFailure
      forget_actor
      raise if attempt >= ATTEMPTS

      retry
    end
  end

  private

  def connection
    Comment.connection
  end

  def insert
    set_actor, clear_actor = SET_ACTOR.fetch(connection.adapter_name)
    number = ShortId.new_number
    comment = Comment.new(
      numid: ShortId.stored(number, connection.adapter_name), video: @video,
      **Comment::FIELDS.to_h { |name, column| [column, @fields[name]] }
    )
    comment.short_id = ShortId.encode(number)
    Comment.transaction do
      execute(set_actor, @actor)
      comment.save!
      execute(clear_actor) if clear_actor
    end
    comment
  end

  def forget_actor
    execute("SET @layerbench_actor = NULL") if connection.adapter_name == "Mysql2"
  end

  def execute(sql, *binds)
    connection.execute(ActiveRecord::Base.sanitize_sql_array([sql, *binds]))
  end
end
