@_exported import LoopScheduler
