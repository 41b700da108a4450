package dev.relaycheck.code.run;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.schedule.PctStrategy;
import dev.relaycheck.code.schedule.RandomStrategy;
import dev.relaycheck.jdbc.db.DbTarget;
import org.junit.jupiter.api.Test;

class RelayRunProbe {
    @Test
    void probe() throws Exception {
        String[] classes = System.getProperty("probe.classes", "com.team.outbox.TeamRelayCheck").split(",");
        Settings settings = Settings.defaults().withInstanceIds(Settings.InstanceIds.parse(System.getProperty("probe.ids", "unique")));
        DbTarget db = System.getProperty("probe.db", "h2").equals("postgres") ? dev.relaycheck.jdbc.db.PostgresTarget.managed() : DbTarget.h2();
        for (String cls : classes) {
            RelayFactory f = (RelayFactory) Class.forName(cls).getDeclaredConstructor().newInstance();
            java.util.Map<String, Integer> found = new java.util.TreeMap<>();
            java.util.Map<String, Integer> reached = new java.util.TreeMap<>();
            long t0 = System.nanoTime();
            int seeds = Integer.getInteger("probe.seeds", 20);
            RunResult firstFail = null;
            for (long seed = 1; seed <= seeds; seed++) {
                var strategy = seed % 2 == 0 ? new PctStrategy(seed, 3, settings.steps()) : new RandomStrategy(seed);
                RunResult r = new RelayRun(f, db, settings, strategy, seed).run();
                r.findings().forEach(x -> found.merge(x.invariant().name(), 1, Integer::sum));
                r.reached().forEach(x -> reached.merge(x.name(), 1, Integer::sum));
                if (r.unfinished() != null) {
                    found.merge("UNFINISHED", 1, Integer::sum);
                    System.out.println("seed " + seed + " " + r.unfinished() + "\n" + r.traceText());
                }
                String only = System.getProperty("probe.only");
                if (firstFail == null && r.failed() && (only == null || r.findings().stream().anyMatch(x -> x.invariant().name().equals(only)))) {
                    firstFail = r;
                }
            }
            System.out.println(cls + ": " + seeds + " seeds in " + (System.nanoTime() - t0) / 1_000_000 + " ms: found " + found + " reached " + reached);
            if (firstFail != null && Boolean.getBoolean("probe.trace")) {
                System.out.println(firstFail.findings());
                System.out.println(firstFail.traceText());
            }
        }
    }
}
