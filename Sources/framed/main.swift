import Foundation

exit(FramedCommand.main(Array(CommandLine.arguments.dropFirst())))
