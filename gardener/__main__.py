from gardener.cli.fast import main

main()
