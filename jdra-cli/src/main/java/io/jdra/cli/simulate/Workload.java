package io.jdra.cli.simulate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The arrivals of a scenario, drawn up front from the seed: per template its own random stream (so
 * adding a template does not change the others' arrivals), each arrival with its run duration.
 */
final class Workload {
  /** One pod to create. */
  record Arrival(int template, int index, Duration at, Duration runFor) {}

  private Workload() {}

  static List<Arrival> arrivals(Scenario s) {
    List<Arrival> out = new ArrayList<>();
    for (int t = 0; t < s.pods().size(); t++) {
      Scenario.PodTemplate p = s.pods().get(t);
      SplittableRandom r = new SplittableRandom(s.seed() * 1_000_003L + t);
      Duration until = p.until() != null ? p.until() : s.duration();
      Duration at = p.start();
      for (int i = 0; p.count() == 0 || i < p.count(); i++) {
        if (p.ratePerSecond() > 0) {
          double gap =
              p.poisson()
                  ? -Math.log(1 - r.nextDouble()) / p.ratePerSecond()
                  : 1 / p.ratePerSecond();
          if (i > 0 || p.poisson()) {
            at = at.plusNanos((long) (gap * 1e9));
          }
        }
        if (until != null && at.compareTo(until) > 0) {
          break;
        }
        Duration run = p.runDuration() == null ? null : p.runDuration().sample(r);
        out.add(new Arrival(t, i, at, run));
      }
    }
    out.sort((a, b) ->
        a.at().equals(b.at())
            ? a.template() != b.template()
                ? Integer.compare(a.template(), b.template())
                : Integer.compare(a.index(), b.index())
            : a.at().compareTo(b.at()));
    return out;
  }
}
