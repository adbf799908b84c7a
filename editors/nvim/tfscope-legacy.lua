-- tfscope for Neovim 0.7 to 0.10 without plugins (Neovim 0.11+: use lsp/tfscope.lua instead).
-- Copy to ~/.config/nvim/lua/tfscope_legacy.lua, then in init.lua:
--   require('tfscope_legacy').setup()                                  -- `tfscope` on PATH
--   require('tfscope_legacy').setup({ cmd = { 'python3', '-m', 'tfscope', 'serve' } })
local M = {}

local defaults = {
  name = 'tfscope',
  cmd = { 'tfscope', 'serve' },
  root_markers = { 'pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', '.git' },
  settings = { tfscope = {} },
}

-- The nearest folder holding a root marker, else the file's own folder.
local function find_root(path, markers)
  local folder = vim.fn.fnamemodify(path, ':p:h')
  while true do
    for _, marker in ipairs(markers) do
      if (vim.uv or vim.loop).fs_stat(folder .. '/' .. marker) then
        return folder
      end
    end
    local parent = vim.fn.fnamemodify(folder, ':h')
    if parent == folder then
      return vim.fn.fnamemodify(path, ':p:h')
    end
    folder = parent
  end
end

function M.setup(options)
  local config = vim.tbl_deep_extend('force', defaults, options or {})
  local client_by_root = {}

  local function attach(bufnr)
    local path = vim.api.nvim_buf_get_name(bufnr)
    if path == '' or vim.bo[bufnr].buftype ~= '' then
      return
    end
    local root = find_root(path, config.root_markers)
    local client_id = client_by_root[root]
    if not client_id or vim.lsp.client_is_stopped(client_id) then
      client_id = vim.lsp.start_client({
        name = config.name,
        cmd = config.cmd,
        root_dir = root,
        settings = config.settings,
        init_options = config.init_options,
        on_attach = config.on_attach,
      })
      client_by_root[root] = client_id
    end
    if client_id then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end

  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('tfscope', { clear = true }),
    pattern = 'python',
    callback = function(event)
      attach(event.buf)
    end,
  })
end

return M
