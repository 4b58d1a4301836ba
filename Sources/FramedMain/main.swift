internal import Glibc
import FramedCLI

exit(FramedCommand.run())
