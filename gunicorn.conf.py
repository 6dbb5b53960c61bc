"""gunicorn's settings for a club's server (the README's club section, docs/tablestakes.service):

    .venv/bin/gunicorn -c gunicorn.conf.py tablestakes.wsgi:application

gunicorn also reads this file by itself when started in this directory. Anything given on
gunicorn's command line wins over it (--bind, --workers...).
"""

import os

bind = "127.0.0.1:8000"
# Sync workers: one request at a time each, so a PDF rendering's deadline (a SIGALRM) and its
# renderer (a child process, fork) work (scoresheets/pdf.py). Their number is
# WEB_CONCURRENCY's, which TABLESTAKES_PDF_RENDERS also reads (one less than it by default).
worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
timeout = 30

# -- what one request may send ----------------------------------------------------------------
# A second wall behind the fixed cookie parsing (tablestakes/cookies.py, CVE-2024-7592): the
# headers of a request are bounded before any of the app runs. A browser sends 10 to 20
# headers, a proxy adds 3 or 4; gunicorn joins repeated headers (16 Cookie lines of 8 KB were
# one 128 KB value), so fewer lines also mean a smaller joined value. Over a limit gunicorn
# answers 400 and closes the connection.
limit_request_fields = 32          # header lines (gunicorn's default: 100)
limit_request_field_size = 8190    # bytes in one header line (nginx's default buffer, 8 KB)
limit_request_line = 4094          # bytes in the request line: the app's longest URL is ~200

# -- no control socket -------------------------------------------------------------------------
# gunicorn 25.1+ opens a control socket for gunicornc at one path per user
# ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl): a second instance of the same
# user (a second club, a staging copy) takes over the first one's, and gunicornc would then
# reload or stop the wrong server. The club's server is managed by systemd's signals
# (docs/tablestakes.service), so there is none.
control_socket_disable = True
