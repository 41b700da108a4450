package com.example.modulith.relaycheck;

import com.example.modulith.OrderApplication;
import com.example.modulith.OrderService;
import com.example.modulith.PublicationCleanup;
import com.example.modulith.StockReservations;
import com.example.modulith.Warehouse;
import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;
import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.model.Invariant;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.FailedEventPublications;
import org.springframework.modulith.events.ResubmissionOptions;
import org.springframework.modulith.events.config.StalenessProperties;
import org.springframework.modulith.events.core.EventPublicationRegistry;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The order service on Spring Modulith's JDBC event publication registry, checked by its own code: each process
 * relaycheck starts is the Spring Boot application on relaycheck's DataSource with relaycheck's clock as its
 * {@link Clock} bean. The producer places orders ({@link OrderService#place}); the inventory listener runs after each
 * commit, on the service's task executor, and reserves the stock ({@link StockReservations}, in the listener's
 * transaction), through relaycheck's consumer boundary. A relay instance is the
 * service's retry path, one pass of what the team schedules: the staleness monitor (publications in progress longer
 * than 30 s are marked failed) and the resubmission of failed publications. The cleanup job is the team's purge of
 * completed publications ({@link PublicationCleanup}). Modulith has no lease and no fencing: a resubmission may run
 * beside the listener it replaces, which still completes the publication afterwards.
 */
public class ModulithCode implements RelayFactory, AutoCloseable {
    /** How long a publication may stay published, in progress or resubmitted before the monitor marks it failed. */
    static final String STALENESS = "30s";

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();
    private Instance serviceInstance;
    private OrderService orders;

    @Override
    public void createSchema(DataSource db) {
        try (ConfigurableApplicationContext schema = start(db, Clock.systemUTC(), null, true)) {
            JdbcTemplate jdbc = schema.getBean(JdbcTemplate.class);
            for (String ddl : OrderApplication.SCHEMA) {
                jdbc.execute(ddl);
            }
        }
    }

    @Override
    public Poller newInstance(Instance instance) {
        ConfigurableApplicationContext app = service(instance);
        EventPublicationRegistry registry = app.getBean(EventPublicationRegistry.class);
        StalenessProperties staleness = app.getBean(StalenessProperties.class);
        FailedEventPublications failed = app.getBean(FailedEventPublications.class);
        return () -> {
            registry.markStalePublicationsFailed(staleness);
            failed.resubmit(ResubmissionOptions.defaults());
        };
    }

    @Override
    public void produce(Instance producer, NewEvent e) {
        if (producer != serviceInstance) { // a restarted service starts anew
            serviceInstance = producer;
            orders = service(producer).getBean(OrderService.class);
        }
        orders.place(e.id(), e.aggregate(), e.quantity());
    }

    @Override
    public Poller cleanup(Instance job) {
        return service(job).getBean(PublicationCleanup.class)::purgeCompleted;
    }

    @Override
    public String outboxQuery() {
        return "SELECT CAST(ID AS VARCHAR(36)) AS id, CAST(ID AS VARCHAR(36)) AS aggregate, 0 AS order_key, "
                + "COMPLETION_DATE IS NOT NULL AS delivered, CAST(NULL AS VARCHAR(1)) AS owner, "
                + "PUBLICATION_DATE + INTERVAL '" + STALENESS.replace("s", "") + "' SECOND AS lease_expiry, COMPLETION_ATTEMPTS AS token "
                + "FROM EVENT_PUBLICATION";
    }

    /** Modulith has no lease and no fencing, and no order between publications. */
    @Override
    public String effectsQuery() {
        return "SELECT order_id AS id FROM stock_reservation";
    }

    @Override
    public Set<Invariant> notPromised() {
        return Set.of(Invariant.STALE_ACK_REJECTED, Invariant.SINGLE_LIVE_LEASE, Invariant.AGGREGATE_ORDER);
    }

    private ConfigurableApplicationContext service(Instance instance) {
        ConfigurableApplicationContext[] app = new ConfigurableApplicationContext[1];
        Warehouse reservations = order -> instance.deliver(order.orderId(),
                () -> new StockReservations(app[0].getBean(JdbcTemplate.class)).reserve(order));
        app[0] = start(instance.dataSource(), instance.clock(), reservations, false);
        started.add(app[0]);
        return app[0];
    }

    /** The Spring Boot application, as the service starts it, on {@code db} and {@code clock}; its own warehouse where null. */
    static ConfigurableApplicationContext start(DataSource db, Clock clock, Warehouse warehouse, boolean initializeSchema) {
        ClassLoader own = OrderApplication.class.getClassLoader();
        Thread.currentThread().setContextClassLoader(own);
        return new SpringApplicationBuilder(OrderApplication.class)
                .resourceLoader(new DefaultResourceLoader(own))
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .registerShutdownHook(false)
                .properties("spring.modulith.events.jdbc.schema-initialization.enabled=" + initializeSchema,
                        "spring.modulith.events.staleness.published=" + STALENESS,
                        "spring.modulith.events.staleness.processing=" + STALENESS,
                        "spring.modulith.events.staleness.resubmission=" + STALENESS,
                        // Moments (unused here) would enable scheduling, and with it the monitor's own wall-clock timer
                        "spring.autoconfigure.exclude=org.springframework.modulith.moments.autoconfigure.MomentsAutoConfiguration")
                .initializers(context -> {
                    context.getBeanFactory().registerSingleton("dataSource", db);
                    context.getBeanFactory().registerSingleton("clock", clock);
                    // @Async listeners run on the thread that hands them over (after the order's commit; in a poll's
                    // resubmission): relaycheck sees a thread when it reaches a statement, so a pool thread's first
                    // statement would join the schedule whenever the pool got to it
                    context.getBeanFactory().registerSingleton("taskExecutor", new SyncTaskExecutor());
                    if (warehouse != null) {
                        context.getBeanFactory().registerSingleton("warehouse", warehouse);
                    }
                })
                .run();
    }

    /** The end of a run: every process relaycheck started for it stops. */
    @Override
    public void close() {
        started.forEach(ConfigurableApplicationContext::close);
    }
}
