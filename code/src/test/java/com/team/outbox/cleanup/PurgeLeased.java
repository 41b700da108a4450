package com.team.outbox.cleanup;

/** A purge that also takes the rows an instance holds: one it deletes before the event was delivered is lost. */
public class PurgeLeased extends PurgeSent {
    @Override
    protected String purgeSql() {
        return "DELETE FROM outbox WHERE status = 'SENT' OR locked_by IS NOT NULL";
    }
}
