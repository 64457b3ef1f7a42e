import os

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.core.management import call_command
from django.db.models.signals import post_migrate


def create_cache_tables(sender, using: str = "default", **kwargs) -> None:
    # The database cache that counts sign-ups (settings.py) needs its table; making
    # it here means `migrate` (and so `make run`) is all a fresh install needs.
    call_command("createcachetable", database=using, verbosity=0)


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "OFC Board score keeper"

    def ready(self) -> None:
        # Files only this user can read: SQLite makes db.sqlite3 (and its -wal and -shm,
        # which take the file's mode) with the process's umask, and sessions' cache files
        # and backups are made the same way; with the usual 022 any local user could read
        # sessions and password hashes. Here, because every process that serves or runs a
        # command (the server's workers through wsgi.py, manage.py, the tests) passes
        # through django.setup() before its first connection or file.
        os.umask(0o077)
        post_migrate.connect(create_cache_tables, sender=self)
        from scorekeeper.services.rebuild import fill_card_results_after_migrate

        # Migration 0014 adds the boards' stored results and leaves them to this.
        post_migrate.connect(fill_card_results_after_migrate, sender=self)
        from scorekeeper.site.middleware import carry_account_language

        user_logged_in.connect(carry_account_language, dispatch_uid="carry_account_language")
        from scorekeeper.site.throttle import remember_login

        user_logged_in.connect(remember_login, dispatch_uid="remember_login")
        from scorekeeper.site.phones import record_login, record_logout

        user_logged_in.connect(record_login, dispatch_uid="record_login")
        user_logged_out.connect(record_logout, dispatch_uid="record_logout")
        from scorekeeper.copies.backups_kept import keep_backup_after_a_night
        from scorekeeper.services.nights import night_ended

        night_ended.connect(keep_backup_after_a_night, dispatch_uid="keep_backup_after_a_night")
        from scorekeeper.services.push import night_told
        from scorekeeper.views.pushed_parts import carry_the_live_part

        night_told.connect(carry_the_live_part, dispatch_uid="carry_the_live_part")
