from tactictoe import main
main.run()
