import Foundation

/// An open walk from a starting point through every stop once (discovery.md: the wishlist's
/// route). Up to `exactLimit` stops (a wishlist's usual handful of stores) the shortest walk is
/// found exactly, by branch and bound. Beyond that: nearest neighbour, then 2-opt (reverse a
/// stretch of the walk whenever that makes it shorter, until none does); 2-opt also improves the
/// stops' given order and the shorter walk wins, so the route is never longer than the list as it
/// stands.
struct WalkingRoute<Stop> {
    struct Point: Sendable, Equatable {
        var lat: Double
        var lng: Double
    }

    let start: Point
    let stops: [(stop: Stop, at: Point)]

    /// The stops in walking order.
    static var exactLimit: Int { 9 }

    func ordered() -> [(stop: Stop, at: Point)] {
        guard stops.count > 1 else { return stops }
        if stops.count <= Self.exactLimit { return shortest().map { stops[$0] } }
        let walks = [twoOpt(nearestNeighbour()), twoOpt(Array(stops.indices))]
        let best = walks.min { Self.length(from: start, through: $0.map(point)) < Self.length(from: start, through: $1.map(point)) }!
        return best.map { stops[$0] }
    }

    /// The shortest walk, by depth-first search that drops any partial walk already as long as
    /// the best complete one (seeded with the heuristic's walk, so most branches end early).
    private func shortest() -> [Int] {
        var best = twoOpt(nearestNeighbour())
        var bestLength = Self.length(from: start, through: best.map(point))
        var path: [Int] = []
        var used = [Bool](repeating: false, count: stops.count)
        func extend(from here: Point, length: Double) {
            if path.count == stops.count {
                if length < bestLength - 1e-12 { best = path; bestLength = length }
                return
            }
            for next in stops.indices where !used[next] {
                let total = length + Self.distance(here, point(next))
                guard total < bestLength - 1e-12 else { continue }
                used[next] = true
                path.append(next)
                extend(from: point(next), length: total)
                path.removeLast()
                used[next] = false
            }
        }
        extend(from: start, length: 0)
        return best
    }

    private func twoOpt(_ initial: [Int]) -> [Int] {
        var order = initial
        var improved = true
        while improved {
            improved = false
            for i in 0..<(order.count - 1) {
                for j in (i + 1)..<order.count where gain(reversing: i...j, in: order) > 1e-9 {
                    order[i...j].reverse()
                    improved = true
                }
            }
        }
        return order
    }

    /// Kilometres walked visiting `points` in the given order from the start.
    static func length(from start: Point, through points: [Point]) -> Double {
        var total = 0.0
        var previous = start
        for point in points {
            total += distance(previous, point)
            previous = point
        }
        return total
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        Geo.distanceKm(lat1: a.lat, lng1: a.lng, lat2: b.lat, lng2: b.lng)
    }

    private func point(_ index: Int) -> Point { stops[index].at }

    private func nearestNeighbour() -> [Int] {
        var left = Set(stops.indices)
        var order: [Int] = []
        var here = start
        while let next = left.min(by: { Self.distance(here, point($0)) < Self.distance(here, point($1)) }) {
            order.append(next)
            left.remove(next)
            here = point(next)
        }
        return order
    }

    /// How much shorter the walk gets when `order[range]` is walked backwards. The walk is open:
    /// it starts at `start` and ends at its last stop, so reversing a tail changes one edge only.
    private func gain(reversing range: ClosedRange<Int>, in order: [Int]) -> Double {
        let before = range.lowerBound == 0 ? start : point(order[range.lowerBound - 1])
        let first = point(order[range.lowerBound])
        let last = point(order[range.upperBound])
        let oldEdges = Self.distance(before, first)
        let newEdges = Self.distance(before, last)
        guard range.upperBound + 1 < order.count else { return oldEdges - newEdges }
        let after = point(order[range.upperBound + 1])
        return oldEdges + Self.distance(last, after) - newEdges - Self.distance(first, after)
    }
}
