"""JHE's settings with short-lived access tokens, for `make test-jhe`.

run.sh copies this file into the JHE checkout as jhe/test_jhe_settings.py and selects it with
DJANGO_SETTINGS_MODULE=jhe.test_jhe_settings. JHE fixes the access-token lifetime at two weeks
(OAUTH2_PROVIDER["ACCESS_TOKEN_EXPIRE_SECONDS"] in jhe/settings.py); the tier needs several
refreshes within minutes, so it takes EGW_TOKEN_SECONDS (run.sh sets it) instead. Nothing
else changes.
"""

import os

from .settings import *  # noqa: F401,F403
from .settings import OAUTH2_PROVIDER

OAUTH2_PROVIDER = {**OAUTH2_PROVIDER, "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("EGW_TOKEN_SECONDS", "25"))}
