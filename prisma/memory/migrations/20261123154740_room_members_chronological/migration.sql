-- DropIndex
DROP INDEX "room_members_room_id_joined_at_idx";

-- CreateIndex
CREATE INDEX "room_members_room_id_joined_at_memory_id_idx" ON "room_members"("room_id", "joined_at", "memory_id");

