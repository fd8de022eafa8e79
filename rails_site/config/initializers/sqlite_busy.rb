# A SQLite writer that finds the database locked waits for it in Ruby, not in SQLite's C busy
# timeout: the sqlite3 gem (1.4) holds Ruby's global lock through that timeout, so the thread
# of the same process that holds the write lock could not run to release it, and every writer
# of that process stood still for the whole timeout (seen under puma, 2 workers of 5 threads:
# the write rung at 0 req/s). Rails 7.1 does the same (busy_handler_timeout).
module LayerbenchSqliteBusyHandler
  WAIT_S = 0.001
  TIMEOUT_S = 30.0

  private

  def configure_connection
    super
    deadline = nil
    @connection.busy_handler do |count|
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + TIMEOUT_S if count.zero?
      sleep(WAIT_S)
      Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    end
  end
end

ActiveSupport.on_load(:active_record) do
  require "active_record/connection_adapters/sqlite3_adapter"
  ActiveRecord::ConnectionAdapters::SQLite3Adapter.prepend(LayerbenchSqliteBusyHandler)
end
