/// `column` as a test SQLite's planner must not answer from an index: the unary `+` keeps it a
/// plain filter, so the statement walks the index its ORDER BY wants and stops after a page
/// instead of gathering rows through another index and sorting them (seen at 100 000 and
/// 1 000 000 products in lists, feeds and search). PostgreSQL plans by its statistics: unchanged.
func plainFilter(_ column: String, dialect: String) -> String {
    dialect == "postgresql" ? column : "+\(column)"
}
