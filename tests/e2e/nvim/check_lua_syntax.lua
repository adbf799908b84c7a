-- Compiles (never runs) each Lua file named in TFSCOPE_E2E_FILES (one per line) with Neovim's
-- LuaJIT and writes { path = error message or false } as JSON to TFSCOPE_E2E_RESULT.
local errors = {}
for path in assert(os.getenv('TFSCOPE_E2E_FILES')):gmatch('[^\n]+') do
  local _, message = loadfile(path)
  errors[path] = message or false
end
local file = assert(io.open(assert(os.getenv('TFSCOPE_E2E_RESULT')), 'w'))
file:write(vim.fn.json_encode(errors))
file:close()
vim.cmd('qall!')
