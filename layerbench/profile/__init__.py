"""Where a served request's CPU goes: stack samples of the server's workers, each frame's layer
(the distribution its file belongs to, the standard library, the measured site, a shared
object), each layer's share with its interval, and flame graphs of the samples."""
