require "securerandom"
require "uri"

# What layerbench's environment says, as Rails reads it: the databases, the cache, the secret.
# The variables are those of every layerbench application (layerbench_sites/app/app_config.py).
module LayerbenchSettings
  SQLITE_TIMEOUT_MS = 30_000
  ADAPTERS = { "postgresql" => "postgresql", "postgres" => "postgresql", "mysql" => "mysql2" }.freeze

  module_function

  def databases
    rungs = database(ENV["LAYERBENCH_ORM_URL"].to_s.empty? ? rung_file : ENV["LAYERBENCH_ORM_URL"])
    site = ENV["LAYERBENCH_DATABASE_URL"].to_s
    { "primary" => site.empty? ? rungs : database(site), "rungs" => rungs }
  end

  def site?
    !ENV["LAYERBENCH_DATABASE_URL"].to_s.empty?
  end

  def rung_file
    path = ENV["LAYERBENCH_DB_PATH"].to_s
    raise "LAYERBENCH_DB_PATH is not set: it names the SQLite database to serve" if path.empty?
    raise "LAYERBENCH_DB_PATH names #{path}, which does not exist" unless File.file?(path)

    path
  end

  # A SQLite path (or sqlite:///relative, sqlite:////absolute), postgresql:// or mysql://.
  def database(location)
    return sqlite(location.delete_prefix("sqlite:///")) if location.start_with?("sqlite:///")
    return sqlite(location) unless location.include?("://")

    url = URI.parse(location)
    adapter = ADAPTERS.fetch(url.scheme) { raise "#{location} is not a database for Rails here" }
    {
      "adapter" => adapter, "host" => url.host, "port" => url.port,
      "username" => url.user, "password" => url.password,
      "database" => url.path.delete_prefix("/"), "pool" => 32,
      "encoding" => adapter == "mysql2" ? "utf8mb4" : "unicode"
    }.compact
  end

  def sqlite(path)
    { "adapter" => "sqlite3", "database" => path, "timeout" => SQLITE_TIMEOUT_MS, "pool" => 32 }
  end

  def cache_url
    ENV["LAYERBENCH_CACHE_URL"].to_s
  end

  # The site database's own id, drawn when layerbench made its schema (its site_identity
  # table; a database made again at the same place has another), read once.
  def database_identity
    @database_identity ||= ActiveRecord::Base.connection.select_value("SELECT id FROM site_identity").to_s
  end

  # :page (files in public/, the default), :action (in memcached) or :none.
  def page_cache
    return :none if cache_url == "none"
    return :action if cache_url.start_with?("memcached://")
    return :page if cache_url.empty? || cache_url == "local"

    raise "#{cache_url}: the rails application keeps its pages in public/ or in memcached"
  end

  def cache_store
    return :null_store unless page_cache == :action

    url = URI.parse(cache_url)
    [:mem_cache_store, "#{url.host}:#{url.port}"]
  end

  def secret
    value = ENV["LAYERBENCH_SECRET"].to_s
    value.empty? ? SecureRandom.hex(32) : value
  end
end
