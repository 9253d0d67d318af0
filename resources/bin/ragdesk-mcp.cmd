@echo off
rem ragdesk's MCP server over stdio (see ragdesk-mcp next to this file): the packaged app's own executable as Node,
rem else the project's Electron binary, else plain node from PATH (a headless install). Extra arguments go to
rem `ragdesk mcp` (e.g. --data-dir DIR). RAGDESK_ELECTRON names another executable to run as Node.
setlocal
set "RES=%~dp0.."
set "EXE="
if defined RAGDESK_ELECTRON set "EXE=%RAGDESK_ELECTRON%"
if not defined EXE if exist "%RES%\..\ragdesk.exe" set "EXE=%RES%\..\ragdesk.exe"
if not defined EXE if exist "%RES%\..\node_modules\electron\dist\electron.exe" set "EXE=%RES%\..\node_modules\electron\dist\electron.exe"
set "MAIN=%RES%\..\out\main"
if exist "%RES%\app.asar" set "MAIN=%RES%\app.asar\out\main"
if not defined EXE goto node
set ELECTRON_RUN_AS_NODE=1
"%EXE%" "%MAIN%\index.js" --mcp-stdio %*
exit /b %ERRORLEVEL%
:node
where node >nul 2>nul || (echo ragdesk-mcp: no app executable next to %RES% and no node on PATH 1>&2 & exit /b 127)
node "%MAIN%\cli.js" mcp %*
exit /b %ERRORLEVEL%
