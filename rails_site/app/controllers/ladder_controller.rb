# The ladder's framework rungs, each at its path in layerbench/rungs/definitions.py.
class LadderController < ActionController::Base
  HELLO = "Hello world!".freeze
  PAGE_VIDEO = "hello-world".freeze

  def health
    render plain: "ok"
  end

  def string
    render plain: HELLO
  end

  def orm
    render plain: hello_row.value
  end

  def template
    @hello = hello_row
    render :template, layout: false
  end

  def page
    @video = Video.find_by(prettyid: PAGE_VIDEO) or raise "the rung data is missing: video #{PAGE_VIDEO}"
    @comments = @video.comments_in_order
    render "videos/show", layout: false
  end

  private

  def hello_row
    Hello.find_by(id: 1) or raise "the rung data is missing: row 1 of table hello"
  end
end
