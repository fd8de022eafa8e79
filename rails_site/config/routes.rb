Rails.application.routes.draw do
  get "/ladder/string", to: "ladder#string"
  get "/ladder/orm", to: "ladder#orm"
  get "/ladder/template", to: "ladder#template"
  if LayerbenchSettings.site?
    get "/ladder/page", to: "ladder#page"
    get "/v/:ref", to: "videos#show", constraints: { ref: /[0-9a-z][0-9a-z-]{0,63}/ }
    post "/videos/:ref/comments", to: "comments#create"
  end
  get "/health", to: "ladder#health"
end
