print("podcast-watch: not yet implemented; see --help")
