require "securerandom"

# The project's short ids, version 0 (layerbench_sites/ids/codec.py): a 64-bit number as 13
# characters of base36; stored signed on SQLite and PostgreSQL (layerbench_sites/datalayer/numids.py).
module ShortId
  LENGTH = 13
  PATTERN = /\A[0-9a-z]{13}\z/.freeze
  MAX = 2**64 - 1

  module_function

  def new_number
    SecureRandom.random_number(2**64)
  end

  def encode(number)
    number.to_s(36).rjust(LENGTH, "0")
  end

  def short_id?(ref)
    PATTERN.match?(ref) && ref.to_i(36) <= MAX
  end

  def stored(number, adapter)
    return number if adapter == "Mysql2"

    number >= 2**63 ? number - 2**64 : number
  end
end
