# The seed's cache_sweeper: a comment or video written expires the video's cached pages once
# its transaction has committed. It observes the models, so it fires outside a request too
# (a console, a script): there it has no controller, and expires the pages by the class.
class CommentSweeper < ActionController::Caching::Sweeper
  observe Comment, Video

  def after_commit(record)
    video = record.is_a?(Comment) ? record.video : record
    [video.short_id, video.prettyid].compact.each { |ref| expire("/v/#{ref}") }
  end

  private

  def expire(path)
    case LayerbenchSettings.page_cache
    when :page then ActionController::Base.expire_page(path)
    # The fragment's key as caches_action made it ("views/…"), by a controller of no request.
    when :action then VideosController.new.expire_fragment(VideosController.action_cache_key(path))
    end
  end
end
