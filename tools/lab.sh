#!/usr/bin/env bash
# JupyterLab on the notebooks (`make lab`): the project's .venv (its kernel imports this checkout's playworld), bound to
# 127.0.0.1 with a token, no browser opened, and nothing fetched from the internet: no news feed, no update check, a
# read-only extension manager (no PyPI queries). The widget front ends (ipywidgets 8 = jupyterlab_widgets; plotly's
# FigureWidget = anywidget) are prebuilt extensions installed with the Python packages: no JupyterLab build step.
# Environment: LAB_PORT (8888), LAB_TOKEN (random), LAB_DIR (nbs), BIN (.venv/bin); extra arguments go to `jupyter lab`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
if ! "$BIN/python" -c 'import jupyterlab' 2>/dev/null; then
  echo "[lab] jupyterlab is not installed in $BIN: run \`make setup\` (or $BIN/pip install jupyterlab)" >&2; exit 1
fi
# the widget front end must match the kernel's ipywidgets, or every widget cell prints a bare 'VBox(...)': say so now
"$BIN/python" -c 'from playworld.ui.lab import main; main()' || exit 1
PORT=${LAB_PORT:-8888}
TOKEN=${LAB_TOKEN:-$("$BIN/python" -c 'import secrets; print(secrets.token_hex(24))')}
DIR=${LAB_DIR:-nbs}
EXTRA=(); [ "$(id -u)" = 0 ] && EXTRA+=(--allow-root)   # containers and CI often run as root
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" MUJOCO_GL=${MUJOCO_GL:-egl}
# tools/jupyter/labconfig/page_config.json disables the news/update-check front-end plugin (the "Would you like to get
# notified about official Jupyter news?" prompt); prepended to the config search path, the user's own config still applies.
export JUPYTER_CONFIG_PATH="$PWD/tools/jupyter${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}"
export GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1
echo "[lab] JupyterLab on $DIR/ — open  http://127.0.0.1:$PORT/lab/tree/tour.ipynb?token=$TOKEN  (Ctrl-C to stop)"
exec "$BIN/jupyter" lab --ip=127.0.0.1 --port="$PORT" --ServerApp.port_retries=0 --no-browser \
  --IdentityProvider.token="$TOKEN" --ServerApp.root_dir="$DIR" \
  --LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
  --LabApp.extension_manager=readonly "${EXTRA[@]}" "$@"
