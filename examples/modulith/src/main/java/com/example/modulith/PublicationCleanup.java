package com.example.modulith;

import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.stereotype.Component;

/** The team's scheduled purge of the publication log (in production: {@code @Scheduled(cron = "0 0 3 * * *")}). */
@Component
public class PublicationCleanup {
    private final EventPublicationRepository publications;

    public PublicationCleanup(EventPublicationRepository publications) {
        this.publications = publications;
    }

    public void purgeCompleted() {
        publications.deleteCompletedPublications();
    }
}
