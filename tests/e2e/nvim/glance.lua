-- Headless Neovim 0.11+ driver: attach tfscope through editors/nvim/lsp/tfscope.lua with code
-- lenses switched on in its settings, turn inlay hints on as a user does
-- (vim.lsp.inlay_hint.enable()), wait for the hints and lenses Neovim received, run the lens
-- (its command fills the location list), and write what happened as JSON. Inputs come from
-- TFSCOPE_E2E_* environment variables.
local repo = assert(os.getenv('TFSCOPE_E2E_REPO'))
local server_cmd = { assert(os.getenv('TFSCOPE_E2E_PYTHON')), '-m', 'tfscope', 'serve' }
local result_path = assert(os.getenv('TFSCOPE_E2E_RESULT'))
local wait_ms = tonumber(os.getenv('TFSCOPE_E2E_WAIT_MS') or '30000')

local result = { steps = {}, errors = {} }

local function step(name)
  table.insert(result.steps, name)
end

local function wait_for(what, predicate)
  if not vim.wait(wait_ms, predicate, 50) then
    error('timed out after ' .. wait_ms .. ' ms waiting for ' .. what)
  end
  step(what)
end

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

local set_up, setup_error = pcall(function()
  vim.opt.runtimepath:prepend(repo .. '/editors/nvim')
  vim.lsp.config('tfscope', { cmd = server_cmd, settings = { tfscope = { codeLens = true } } })
  vim.lsp.enable('tfscope')
end)
if not set_up then
  table.insert(result.errors, 'setup: ' .. tostring(setup_error))
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      if set_up then
        local ran, scenario_error = xpcall(run_scenario, debug.traceback)
        if not ran then
          table.insert(result.errors, tostring(scenario_error))
        end
      end
      local file = assert(io.open(result_path, 'w'))
      file:write(vim.fn.json_encode(result))
      file:close()
      vim.cmd('qall!')
    end)
  end,
})
