from layerbench.cli.main import main

main()
