-- Headless Neovim 0.11+ driver: attach tfscope through editors/nvim/lsp/tfscope.lua with code
-- lenses switched on in its settings, turn inlay hints on as a user does
-- (vim.lsp.inlay_hint.enable()), wait for the hints and lenses Neovim received, run the lens
-- (its command fills the location list), and write what happened as JSON. Inputs come from
-- TFSCOPE_E2E_* environment variables.
local repo = assert(os.getenv('TFSCOPE_E2E_REPO'))
local server_cmd = { assert(os.getenv('TFSCOPE_E2E_PYTHON')), '-m', 'tfscope', 'serve' }
local run = dofile(repo .. '/tests/e2e/nvim/harness.lua').new(
  assert(os.getenv('TFSCOPE_E2E_RESULT')), tonumber(os.getenv('TFSCOPE_E2E_WAIT_MS') or '30000'), {})
local result, wait_for = run.result, run.wait_for

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, part in ipairs(label) do
    table.insert(parts, part.value)
  end
  return table.concat(parts)
end

local function run_scenario()
  local bufnr = vim.api.nvim_get_current_buf()
  wait_for('client attached', function()
    return #vim.lsp.get_clients({ bufnr = bufnr }) > 0
  end)
  vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  wait_for('inlay hints', function()
    return #vim.lsp.inlay_hint.get({ bufnr = bufnr }) > 0
  end)
  result.hints = {}
  for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
    local hint = item.inlay_hint
    table.insert(result.hints, { line = hint.position.line, character = hint.position.character, label = label_text(hint.label) })
  end
  table.sort(result.hints, function(a, b) return a.line < b.line end)

  vim.lsp.codelens.refresh({ bufnr = bufnr })
  wait_for('code lenses', function()
    return #vim.lsp.codelens.get(bufnr) > 0
  end)
  result.lenses = {}
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(result.lenses, { line = lens.range.start.line, title = lens.command and lens.command.title })
  end
  vim.api.nvim_win_set_cursor(0, { result.lenses[1].line + 1, 0 })
  vim.lsp.codelens.run()
  wait_for('location list', function()
    return #vim.fn.getloclist(0) > 0
  end)
  result.locations = {}
  for _, item in ipairs(vim.fn.getloclist(0)) do
    table.insert(result.locations, { lnum = item.lnum, text = item.text })
  end
end

run.start(function()
  vim.opt.runtimepath:prepend(repo .. '/editors/nvim')
  vim.lsp.config('tfscope', { cmd = server_cmd, settings = { tfscope = { codeLens = true } } })
  vim.lsp.enable('tfscope')
end, run_scenario)
