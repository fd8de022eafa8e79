"""The measured code: the reference site (``app``), its data layer and short ids, and every
framework's site. layerbench's instrument never imports it: servers load it by the entry named in
:mod:`layerbench.site_contract`, and the lab reaches the site's few set-up tasks through
:mod:`layerbench.sites` alone."""
