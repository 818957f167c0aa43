from ragix_core.cli import main

main()
