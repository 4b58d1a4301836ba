internal import Glibc

exit(FramedCommand.main(Array(CommandLine.arguments.dropFirst())))
