-- Headless Neovim driver (Neovim 0.7 and 0.11+): attach tfscope through a shipped editor
-- config, wait for diagnostics, apply a quick fix the way a user does (vim.lsp.buf.code_action
-- with the vim.ui.select menu answered here), write the file, wait for the diagnostic to go,
-- and write what happened as JSON. Inputs come from TFSCOPE_E2E_* environment variables.
local repo = assert(os.getenv('TFSCOPE_E2E_REPO'))
local setup_style = assert(os.getenv('TFSCOPE_E2E_SETUP')) -- 'legacy' or 'enable'
local server_cmd = { assert(os.getenv('TFSCOPE_E2E_PYTHON')), '-m', 'tfscope', 'serve' }
local rule_code = assert(os.getenv('TFSCOPE_E2E_RULE'))
local action_title = assert(os.getenv('TFSCOPE_E2E_ACTION'))

local version = vim.version()
local run = dofile(repo .. '/tests/e2e/nvim/harness.lua').new(
  assert(os.getenv('TFSCOPE_E2E_RESULT')), tonumber(os.getenv('TFSCOPE_E2E_WAIT_MS') or '30000'),
  { nvim_version = string.format('%d.%d.%d', version.major, version.minor, version.patch) })
local result, step, wait_for = run.result, run.step, run.wait_for

local setups = {
  -- Neovim 0.7 to 0.10: the plugin-free config built on vim.lsp.start_client
  legacy = function()
    dofile(repo .. '/editors/nvim/tfscope-legacy.lua').setup({ cmd = server_cmd })
  end,
  -- Neovim 0.11+: lsp/tfscope.lua found on 'runtimepath', cmd overridden as a user would
  enable = function()
    vim.opt.runtimepath:prepend(repo .. '/editors/nvim')
    vim.lsp.config('tfscope', { cmd = server_cmd })
    vim.lsp.enable('tfscope')
  end,
}

local function attached_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
end

local function diagnostics_of(bufnr)
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, {
      code = diagnostic.code,
      source = diagnostic.source,
      lnum = diagnostic.lnum,
      col = diagnostic.col,
      end_lnum = diagnostic.end_lnum,
      end_col = diagnostic.end_col,
      message = diagnostic.message,
      severity = diagnostic.severity,
    })
  end
  return found
end

local function first_with_code(diagnostics)
  for _, diagnostic in ipairs(diagnostics) do
    if diagnostic.code == rule_code then
      return diagnostic
    end
  end
  return nil
end

-- Answers the code action menu: records every title and picks the wanted one.
local function answer_code_action_menu(items, _, on_choice)
  result.offered_actions = {}
  local chosen = nil
  for _, item in ipairs(items) do
    local action = item.action or item[2] -- 0.11: { action, ctx }; 0.7: { client_id, action }
    table.insert(result.offered_actions, action.title)
    if chosen == nil and action.title == action_title then
      chosen = item
    end
  end
  on_choice(chosen)
end

local function run_scenario()
  local bufnr = vim.api.nvim_get_current_buf()
  wait_for('client attached', function()
    return #attached_clients(bufnr) > 0
  end)
  local client = attached_clients(bufnr)[1]
  result.client = { name = client.name, root_dir = client.config.root_dir, offset_encoding = client.offset_encoding }

  wait_for(rule_code .. ' diagnostic', function()
    return first_with_code(diagnostics_of(bufnr)) ~= nil
  end)
  result.diagnostics_before = diagnostics_of(bufnr)
  local flagged = first_with_code(result.diagnostics_before)

  vim.api.nvim_win_set_cursor(0, { flagged.lnum + 1, flagged.col })
  local tick_before = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.ui.select = answer_code_action_menu
  vim.lsp.buf.code_action()
  wait_for('code action menu', function()
    return result.offered_actions ~= nil
  end)
  wait_for('quick fix applied', function()
    return vim.api.nvim_buf_get_changedtick(bufnr) > tick_before
  end)
  vim.cmd('silent write')
  step('buffer written')

  wait_for(rule_code .. ' diagnostic gone', function()
    return first_with_code(diagnostics_of(bufnr)) == nil
  end)
  result.diagnostics_after = diagnostics_of(bufnr)
end

run.start(setups[setup_style], run_scenario)
