# The video page at /v/REF, built once and then kept: as a file in public/ (caches_page, which
# Apache under Passenger answers without Ruby) or in memcached (caches_action).
class VideosController < ActionController::Base
  case LayerbenchSettings.page_cache
  when :page then caches_page :show
  when :action then caches_action :show, cache_path: -> { VideosController.action_cache_key(request.path) }
  end

  # Under the site database's identity: sites on other databases sharing the memcached never
  # serve each other's pages (as every layerbench site keys its pages).
  def self.action_cache_key(path)
    "layerbench-page:#{LayerbenchSettings.database_identity}#{path}"
  end

  def show
    @video = Video.named(params[:ref])
    return render(plain: "no video #{params[:ref]}\n", status: :not_found) if @video.nil?

    @comments = @video.comments_in_order
    render :show, layout: false
  end
end
