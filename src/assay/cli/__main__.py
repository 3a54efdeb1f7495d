"""``python -m assay.cli`` (as ``python -m assay``): the ``assay`` command line."""

from . import main

if __name__ == "__main__":
    main()
