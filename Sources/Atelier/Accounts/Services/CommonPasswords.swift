/// Passwords long enough to pass the length rule that attackers still try first.
/// Checked case-insensitively, together with single repeated characters and plain digit runs.
enum CommonPasswords {
    static func contains(_ password: String) -> Bool {
        let lowered = password.lowercased()
        if list.contains(lowered) { return true }
        if Set(lowered).count <= 2 { return true }
        if lowered.allSatisfy(\.isNumber) { return true }
        return false
    }

    static let list: Set<String> = [
        "1234567890", "0123456789", "0987654321", "12345678910", "123456789a", "a123456789",
        "1q2w3e4r5t", "1q2w3e4r5t6y", "q1w2e3r4t5", "1qaz2wsx3edc", "zaq12wsxcde3", "qwertyuiop",
        "qwertyuiop123", "qwerty1234", "qwerty12345", "qwerty123456", "asdfghjkl1", "asdfghjkl123",
        "zxcvbnm123", "zxcvbnm1234", "password10", "password12", "password123", "password1234",
        "password12345", "password!1", "password1!", "passw0rd123", "p@ssw0rd123", "p@ssword123",
        "iloveyou12", "iloveyou123", "iloveyou1234", "letmein123", "letmein1234", "welcome123",
        "welcome1234", "welcome2024", "welcome2025", "welcome2026", "sunshine123", "princess123",
        "football123", "baseball123", "superman123", "batman1234", "dragon1234", "monkey1234",
        "shadow1234", "master1234", "trustno1234", "abc1234567", "abcd123456", "abcdefghij",
        "abcdef123456", "abcdefg123", "admin12345", "administrator", "changeme123", "changeme1234",
        "computer123", "internet123", "starwars123", "pokemon1234", "whatever123", "chocolate1",
        "qwerty123!", "qazwsxedcrfv", "1q2w3e4r5t6y7u", "123qweasdzxc", "qweasdzxc123", "asdasdasd1",
        "atelier123", "atelier1234", "fashion123", "fashion1234", "password2024", "password2025",
        "password2026", "summer2025", "summer2026", "winter2025", "winter2026", "spring2026",
        "autumn2026", "liverpool1", "chelsea1234", "arsenal1234", "michael123", "jennifer123",
        "jessica123", "ashley1234", "charlie123", "thomas1234", "freedom123", "mustang123",
        "jordan2323", "harley1234", "ranger1234", "hunter1234", "buster1234", "soccer1234",
        "hockey1234", "killer1234", "george1234", "pepper1234", "daniel1234", "andrew1234",
        "qwer1234qwer", "1234qwerasdf", "1234abcd!", "aa123456789", "11223344556", "1122334455",
        "9876543210", "147258369a", "1234512345", "1234554321", "0000000000", "1111111111",
    ]
}
