-- luacheck config for tagd.nvim (Debian: apt-get install lua-check; run `luacheck .` here).
std = "luajit"
globals = { "vim" }
max_line_length = 120
exclude_files = { ".venv" }
