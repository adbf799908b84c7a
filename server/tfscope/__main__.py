from tfscope.cli import main

raise SystemExit(main())
