package io.jdra.controllers.job;

import java.util.ArrayList;
import java.util.List;

/**
 * Sorted, disjoint, non-adjacent intervals of completion indexes (upstream's {@code
 * orderedIntervals}), as {@code status.completedIndexes} writes them: {@code "1,3-5,7"}, with two
 * consecutive indexes written {@code "1,2"}. Immutable.
 */
record OrderedIntervals(List<Interval> intervals) {
  record Interval(int first, int last) {}

  static final OrderedIntervals EMPTY = new OrderedIntervals(List.of());

  OrderedIntervals {
    intervals = List.copyOf(intervals);
  }

  /**
   * Upstream's {@code parseIndexesFromString}: indexes at or above {@code completions} and
   * malformed parts are dropped, as a controller reading a status it did not write must.
   */
  static OrderedIntervals parse(String s, int completions) {
    if (s == null || s.isEmpty()) {
      return EMPTY;
    }
    List<Interval> parsed = new ArrayList<>();
    for (String part : s.split(",")) {
      int dash = part.indexOf('-');
      try {
        int first = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
        int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1));
        if (first < 0 || last < first || first >= completions) {
          continue;
        }
        parsed.add(new Interval(first, Math.min(last, completions - 1)));
      } catch (NumberFormatException e) {
        // dropped, as upstream
      }
    }
    parsed.sort((a, b) -> Integer.compare(a.first(), b.first()));
    return EMPTY.merge(parsed);
  }

  /** These intervals plus {@code indexes} (any order, duplicates allowed). */
  OrderedIntervals withIndexes(List<Integer> indexes) {
    List<Interval> add = new ArrayList<>();
    indexes.stream().sorted().forEach(i -> add.add(new Interval(i, i)));
    return merge(add);
  }

  /** Union with sorted {@code other} intervals. */
  private OrderedIntervals merge(List<Interval> other) {
    List<Interval> all = new ArrayList<>(intervals);
    all.addAll(other);
    all.sort((a, b) -> Integer.compare(a.first(), b.first()));
    List<Interval> out = new ArrayList<>();
    for (Interval iv : all) {
      Interval last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && iv.first() <= last.last() + 1) {
        out.set(out.size() - 1, new Interval(last.first(), Math.max(last.last(), iv.last())));
      } else {
        out.add(iv);
      }
    }
    return new OrderedIntervals(out);
  }

  int total() {
    return intervals.stream().mapToInt(iv -> iv.last() - iv.first() + 1).sum();
  }

  boolean has(int ix) {
    return intervals.stream().anyMatch(iv -> iv.first() <= ix && ix <= iv.last());
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Interval iv : intervals) {
      if (!b.isEmpty()) {
        b.append(',');
      }
      b.append(iv.first());
      if (iv.last() > iv.first()) {
        b.append(iv.last() == iv.first() + 1 ? ',' : '-').append(iv.last());
      }
    }
    return b.toString();
  }
}
