from host_tools.cli import main

raise SystemExit(main())
