import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var standardOutput: Data
    public var standardError: Data

    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs a program (a path, or a name looked up on PATH through /usr/bin/env) with `input` on its
/// standard input, and waits for it. Tests use it to run our command line and the reference tools
/// (osmium, ogrinfo, the Python pmtiles reader) that check our output independently.
public func runProcess(_ program: String, _ arguments: [String], input: Data = Data()) throws -> ProcessResult {
    let process = Process()
    if program.contains("/") {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
    }
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Feed the input and read both pipes at the same time, so a child that answers line by line
    // (GeodSolve) cannot fill its output pipe while we are still writing its input, and stall.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
        errorData = stderr.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
        group.leave()
    }
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, standardOutput: outputData, standardError: errorData)
}
