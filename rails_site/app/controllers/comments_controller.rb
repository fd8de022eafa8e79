# A comment POSTed as JSON to /videos/REF/comments: 201 with the comment's JSON, as the
# site's API answers (layerbench_sites/app/api/); 415, 400, 422 and 404 as JSON problems.
class CommentsController < ActionController::Base
  skip_forgery_protection
  cache_sweeper :comment_sweeper

  JSON_TYPE = "application/json".freeze
  ACTOR = /\A[A-Za-z0-9._@+-]{1,64}\z/.freeze
  LIMITS = { "name" => 100, "url" => 2000, "email" => 254, "body" => 10_000 }.freeze
  REQUIRED = %w[name body].freeze

  def create
    return problem(415, "unsupported media type", ["the body must be #{JSON_TYPE}"]) unless request.media_type == JSON_TYPE

    fields = JSON.parse(request.raw_post)
    found = problems(fields)
    actor = actor_name
    found << "X-Layerbench-User: 1 to 64 of A-Z a-z 0-9 . _ @ + -" if actor.nil?
    return problem(422, "invalid input", found) unless found.empty?

    video = Video.named(params[:ref])
    return problem(404, "no video #{params[:ref]}", []) if video.nil?

    comment = CommentWriter.new(video, fields, actor).write
    response.headers["Location"] = "/videos/#{video.short_id}/comments/#{comment.short_id}"
    render json: comment.as_document, status: :created
  rescue JSON::ParserError => e
    problem(400, "a body that cannot be read", [e.message])
  end

  private

  def problems(fields)
    return ["the body must be a JSON object"] unless fields.is_a?(Hash)

    found = (fields.keys - LIMITS.keys).map { |key| "#{key}: not a field of a comment" }
    found += (REQUIRED - fields.keys).map { |key| "#{key}: required" }
    LIMITS.each do |key, most|
      next unless fields.key?(key)

      value = fields[key]
      ok = value.is_a?(String) && value.length.between?(1, most)
      found << "#{key}: a string of 1 to #{most} characters" unless ok || (value.nil? && !REQUIRED.include?(key))
    end
    found
  end

  def actor_name
    user = request.env["REMOTE_USER"].presence || request.headers["X-Layerbench-User"].presence || "anonymous"
    "#{user}@#{request.remote_ip || 'unknown'}" if ACTOR.match?(user)
  end

  def problem(status, title, errors)
    render json: { "title" => title, "errors" => errors }, status: status
  end
end
