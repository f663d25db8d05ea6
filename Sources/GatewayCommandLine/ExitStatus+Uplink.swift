import ArgumentParser
import Uplink

extension ExitStatus {
    /// The status an uplink failure deserves: a bad link or URL is bad data, an unreachable
    /// or slow server is temporary, a server that answers but refuses is unavailable, and a
    /// credentials file that cannot be written or read is a file problem.
    package static func status(for error: UplinkError) -> ExitCode {
        switch error.code {
        case .invalidInvitation, .unsupportedInvitationFormat, .invalidBaseURL, .insecureURL, .invitationNotFound,
            .invitationReissued, .invitationExpired, .invitationCancelled, .invalidClientKey, .unencodableValue:
            dataError
        case .connectionFailed, .timedOut:
            temporaryFailure
        case .invalidCAFile, .invalidResolution, .serverMoved:
            configuration
        case .credentialsWriteFailed:
            cannotCreate
        case .credentialsUnreadable:
            ioError
        case .notEnrolled, .reenrolmentRequired:
            negative
        case .tokenRequestFailed, .profileUnavailable, .noDevice, .ambiguousDevice, .unexpectedReply, .unauthorized:
            unavailable
        }
    }
}
