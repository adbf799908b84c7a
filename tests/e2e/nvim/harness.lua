-- What both headless drivers share: named steps, waiting with a timeout, and running the
-- scenario once Neovim has started, then writing the result as JSON and quitting.
local harness = {}

function harness.new(result_path, wait_ms, result)
  local run = { result = result }
  result.steps = {}
  result.errors = {}

  function run.step(name)
    table.insert(result.steps, name)
  end

  function run.wait_for(what, predicate)
    if not vim.wait(wait_ms, predicate, 50) then
      error('timed out after ' .. wait_ms .. ' ms waiting for ' .. what)
    end
    run.step(what)
  end

  -- Sets the client up now, runs the scenario at VimEnter; any error lands in result.errors.
  function run.start(set_up, scenario)
    local was_set_up, setup_error = pcall(set_up)
    if not was_set_up then
      table.insert(result.errors, 'setup: ' .. tostring(setup_error))
    end
    vim.api.nvim_create_autocmd('VimEnter', {
      once = true,
      callback = function()
        vim.schedule(function()
          if was_set_up then
            local ran, scenario_error = xpcall(scenario, debug.traceback)
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
  end

  return run
end

return harness
