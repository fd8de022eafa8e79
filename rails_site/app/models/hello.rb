class Hello < RungRecord
  self.table_name = "hello"
end
