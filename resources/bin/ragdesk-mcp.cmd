@echo off
rem ragdesk's MCP server over stdio with the desktop app's own runtime (Electron as Node). See ragdesk-mcp.
setlocal
set "RES=%~dp0.."
if defined RAGDESK_ELECTRON (set "EXE=%RAGDESK_ELECTRON%") else if exist "%RES%\..\ragdesk.exe" (set "EXE=%RES%\..\ragdesk.exe") else (set "EXE=%RES%\..\node_modules\electron\dist\electron.exe")
if exist "%RES%\app.asar" (set "ENTRY=%RES%\app.asar\out\main\index.js") else (set "ENTRY=%RES%\..\out\main\index.js")
set ELECTRON_RUN_AS_NODE=1
"%EXE%" "%ENTRY%" --mcp-stdio %*
