from arena.cli.app import main

main()
