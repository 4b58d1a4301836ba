internal import Glibc
import FramedCLI

exit(FramedCommand.main(Array(CommandLine.arguments.dropFirst())))
