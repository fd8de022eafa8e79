require "json"
require "stringio"

# Every request's body capped before Rails reads it, as every layerbench site caps its own
# (layerbench_sites/app/body_limit.py; the limit is layerbench/site_contract.py's
# MAX_BODY_BYTES): a body declared over the limit is 413 unread, in the API's words; one of
# unknown length is read up to the limit and no further, then handed on whole. (Before, Rails
# parsed a body of any size: a 64 KiB comment was 422 instead of 413.)
class BodyLimit
  MAX_BYTES = 64 * 1024
  TOO_LARGE = JSON.generate({ "title" => "the body is over #{MAX_BYTES} bytes", "errors" => [] }).freeze

  def initialize(app)
    @app = app
  end

  def call(env)
    length = env["CONTENT_LENGTH"].to_s
    if !length.empty?
      return too_large unless length.match?(/\A\d+\z/) && length.to_i <= MAX_BYTES
    elsif env["HTTP_TRANSFER_ENCODING"].to_s.downcase.include?("chunked") && env["rack.input"]
      body = env["rack.input"].read(MAX_BYTES + 1) || +""
      return too_large if body.bytesize > MAX_BYTES

      env["rack.input"] = StringIO.new(body)
      env["CONTENT_LENGTH"] = body.bytesize.to_s
    end
    @app.call(env)
  end

  private

  def too_large
    [413, { "Content-Type" => "application/json", "Content-Length" => TOO_LARGE.bytesize.to_s }, [TOO_LARGE]]
  end
end
